CREATE TABLE "club_settings" (
	"key" varchar(40) PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "club_settings" ADD CONSTRAINT "club_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Data: the code tables of product.md §9.5 now follow the specification; stored codes move to the new ones
-- (the mapping is product.md §9.5's table "Codes before migration 0012").
UPDATE "member_profiles" SET "women_rank" = CASE "women_rank" WHEN 1 THEN 0 WHEN 2 THEN 1 WHEN 3 THEN 2 WHEN 4 THEN 3 WHEN 5 THEN 8 WHEN 6 THEN 4 WHEN 7 THEN 5 WHEN 8 THEN 5 ELSE "women_rank" END;
--> statement-breakpoint
UPDATE "member_profile_history" SET
	"from_code" = CASE "from_code" WHEN 1 THEN 0 WHEN 2 THEN 1 WHEN 3 THEN 2 WHEN 4 THEN 3 WHEN 5 THEN 8 WHEN 6 THEN 4 WHEN 7 THEN 5 WHEN 8 THEN 5 ELSE "from_code" END,
	"to_code" = CASE "to_code" WHEN 1 THEN 0 WHEN 2 THEN 1 WHEN 3 THEN 2 WHEN 4 THEN 3 WHEN 5 THEN 8 WHEN 6 THEN 4 WHEN 7 THEN 5 WHEN 8 THEN 5 ELSE "to_code" END
	WHERE "field" = 'women_rank';
--> statement-breakpoint
UPDATE "member_profiles" SET "sake" = CASE "sake" WHEN 1 THEN 2 WHEN 2 THEN 3 WHEN 3 THEN 4 ELSE "sake" END WHERE "sake" IN (1, 2, 3);
--> statement-breakpoint
UPDATE "member_profiles" SET "contact_method" = CASE "contact_method" WHEN 1 THEN 5 WHEN 2 THEN 3 WHEN 3 THEN 2 WHEN 4 THEN 1 WHEN 5 THEN 4 END WHERE "contact_method" BETWEEN 1 AND 5;
--> statement-breakpoint
UPDATE "member_profiles" SET "employment" = CASE "employment" WHEN 1 THEN 4 WHEN 2 THEN 3 WHEN 3 THEN 2 WHEN 4 THEN 1 ELSE 5 END WHERE "employment" BETWEEN 1 AND 8;
