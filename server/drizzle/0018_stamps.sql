CREATE TABLE "stamp_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(40) NOT NULL,
	"builtin" varchar(20),
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stamps" (
	"id" serial PRIMARY KEY NOT NULL,
	"set_id" integer NOT NULL,
	"label" varchar(20) NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"image_id" varchar(32) NOT NULL,
	"path" text NOT NULL,
	"mime" varchar(20) NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "stamp_id" integer;--> statement-breakpoint
ALTER TABLE "stamp_sets" ADD CONSTRAINT "stamp_sets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stamps" ADD CONSTRAINT "stamps_set_id_stamp_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."stamp_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stamp_sets_builtin_key" ON "stamp_sets" USING btree ("builtin");--> statement-breakpoint
CREATE INDEX "stamps_set_id_idx" ON "stamps" USING btree ("set_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "stamps_image_id_key" ON "stamps" USING btree ("image_id");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_stamp_id_stamps_id_fk" FOREIGN KEY ("stamp_id") REFERENCES "public"."stamps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_sender_stamp_idx" ON "messages" USING btree ("sender_id","id") WHERE "messages"."stamp_id" is not null;