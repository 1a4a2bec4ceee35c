ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action";--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "desk_status" varchar(8) DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "desk_assignee_id" integer;--> statement-breakpoint
-- Talks of an earlier release: 未対応 only where the member wrote last (product.md §2.6), else 対応済み.
UPDATE "conversations" c SET "desk_status" = 'done' WHERE c."kind" = 'desk' AND coalesce((SELECT m."sender_id" FROM "messages" m WHERE m."conversation_id" = c."id" AND m."deleted_at" IS NULL ORDER BY m."id" DESC LIMIT 1), 0) IS DISTINCT FROM c."member_id";--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_desk_assignee_id_users_id_fk" FOREIGN KEY ("desk_assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_desk_status_idx" ON "conversations" USING btree ("kind","desk_status");--> statement-breakpoint
CREATE INDEX "conversations_desk_assignee_idx" ON "conversations" USING btree ("desk_assignee_id");--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_desk_status" CHECK ("conversations"."desk_status" in ('open', 'pending', 'done'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action" CHECK ("audit_log"."action" in ('add', 'update', 'delete', 'image', 'profile', 'photo', 'sessions', 'security', 'unsend', 'desk'));