-- Decision 027: a bulk send's recipient rows name the member and desk talk of their copy (message_id, which
-- keeps its key and cascade); the two keys that repeated it cost two checks per copy of a 20,000-member send.
ALTER TABLE "broadcast_recipients" DROP CONSTRAINT "broadcast_recipients_member_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "broadcast_recipients" DROP CONSTRAINT "broadcast_recipients_conversation_id_conversations_id_fk";
