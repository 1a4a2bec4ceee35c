ALTER TABLE "users" DROP CONSTRAINT "users_login_id_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_id_lower_key" ON "users" USING btree (lower("login_id"));