ALTER TABLE "audit_log" ADD COLUMN "target_name" varchar(50);--> statement-breakpoint
UPDATE "audit_log" SET "target_name" = left(COALESCE("after"->>'name', "before"->>'name', (SELECT "name" FROM "users" WHERE "users"."id" = "audit_log"."target_id")), 50) WHERE "target_name" IS NULL;
