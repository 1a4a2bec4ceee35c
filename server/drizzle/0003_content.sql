CREATE TABLE "banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" integer NOT NULL,
	"url" varchar(2000) NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "banners_type" CHECK ("banners"."type" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "broadcast_recipients" (
	"broadcast_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"conversation_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	CONSTRAINT "broadcast_recipients_broadcast_id_member_id_pk" PRIMARY KEY("broadcast_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" integer NOT NULL,
	"sender_id" integer,
	"history_message_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broadcasts_type" CHECK ("broadcasts"."type" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "content_images" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"path" text NOT NULL,
	"mime" varchar(20) NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"news_id" integer,
	"banner_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_images_one_owner" CHECK (("content_images"."news_id" is null) <> ("content_images"."banner_id" is null))
);
--> statement-breakpoint
CREATE TABLE "news" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" integer NOT NULL,
	"title" varchar(100) NOT NULL,
	"body" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "news_type" CHECK ("news"."type" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "news_seen" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"last_seen_news_id" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_history_message_id_messages_id_fk" FOREIGN KEY ("history_message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_images" ADD CONSTRAINT "content_images_news_id_news_id_fk" FOREIGN KEY ("news_id") REFERENCES "public"."news"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_images" ADD CONSTRAINT "content_images_banner_id_banners_id_fk" FOREIGN KEY ("banner_id") REFERENCES "public"."banners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "news" ADD CONSTRAINT "news_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "news_seen" ADD CONSTRAINT "news_seen_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "banners_type_id_idx" ON "banners" USING btree ("type","id");--> statement-breakpoint
CREATE INDEX "broadcasts_type_id_idx" ON "broadcasts" USING btree ("type","id");--> statement-breakpoint
CREATE INDEX "content_images_news_id_idx" ON "content_images" USING btree ("news_id","position");--> statement-breakpoint
CREATE INDEX "content_images_banner_id_idx" ON "content_images" USING btree ("banner_id");--> statement-breakpoint
CREATE INDEX "news_type_id_idx" ON "news" USING btree ("type","id");