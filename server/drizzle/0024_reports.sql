CREATE INDEX "messages_report_idx" ON "messages" USING btree ("conversation_id","created_at","id","sender_id") WHERE "messages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "setting_requests_created_at_idx" ON "setting_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "setting_requests_decided_at_idx" ON "setting_requests" USING btree ("decided_at");