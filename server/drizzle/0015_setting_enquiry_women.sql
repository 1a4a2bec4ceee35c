-- product.md §19.11, decision 023: a setting request may name a woman only the external enquiry service knows
-- (her id there and her name when the man asked) instead of a member of this database.
ALTER TABLE "setting_requests" ALTER COLUMN "woman_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "setting_requests" ADD COLUMN "enquiry_woman_id" integer;--> statement-breakpoint
ALTER TABLE "setting_requests" ADD COLUMN "enquiry_woman_name" varchar(100);--> statement-breakpoint
ALTER TABLE "setting_requests" ADD CONSTRAINT "setting_requests_woman" CHECK (("setting_requests"."woman_id" is null) <> ("setting_requests"."enquiry_woman_id" is null) and ("setting_requests"."enquiry_woman_id" is null) = ("setting_requests"."enquiry_woman_name" is null));