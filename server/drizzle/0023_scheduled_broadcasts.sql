CREATE TABLE "broadcast_pushes" (
	"message_id" bigint PRIMARY KEY NOT NULL,
	"pushed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_broadcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" integer NOT NULL,
	"sender_id" integer,
	"recipients" integer[] NOT NULL,
	"body" text NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'scheduled' NOT NULL,
	"claim" text,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduled_broadcasts_type" CHECK ("scheduled_broadcasts"."type" in (1, 2)),
	CONSTRAINT "scheduled_broadcasts_state" CHECK ("scheduled_broadcasts"."state" in ('scheduled', 'sending', 'sent', 'cancelled', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "scheduled_id" integer;--> statement-breakpoint
ALTER TABLE "broadcast_pushes" ADD CONSTRAINT "broadcast_pushes_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_broadcasts" ADD CONSTRAINT "scheduled_broadcasts_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheduled_broadcasts_due_idx" ON "scheduled_broadcasts" USING btree ("state","send_at");--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_scheduled_id_scheduled_broadcasts_id_fk" FOREIGN KEY ("scheduled_id") REFERENCES "public"."scheduled_broadcasts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_scheduled_id_unique" UNIQUE("scheduled_id");