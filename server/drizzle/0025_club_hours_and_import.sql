CREATE TABLE "business_hours" (
	"weekday" smallint PRIMARY KEY NOT NULL,
	"open" boolean NOT NULL,
	"opens_at" smallint NOT NULL,
	"closes_at" smallint NOT NULL,
	CONSTRAINT "business_hours_weekday" CHECK ("business_hours"."weekday" between 0 and 6),
	CONSTRAINT "business_hours_times" CHECK (0 <= "business_hours"."opens_at" and "business_hours"."opens_at" < "business_hours"."closes_at" and "business_hours"."closes_at" < 1440)
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action" CHECK ("audit_log"."action" in ('add', 'update', 'delete', 'image', 'profile', 'photo', 'sessions', 'security', 'unsend', 'desk', 'calendar', 'import'));