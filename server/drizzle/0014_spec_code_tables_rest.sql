-- Data: the rest of product.md §9.5's code tables now follow the specification (area 0 blank; marriage;
-- children; food allergies; date type); stored profiles move to the new codes (the mapping is product.md
-- §9.5's table "Codes before migration 0014"). The audit log keeps what was written at the time.
UPDATE "member_profiles" SET "area" = NULL WHERE "area" = 0;
--> statement-breakpoint
UPDATE "member_profiles" SET "marriage" = CASE "marriage" WHEN 1 THEN 3 WHEN 2 THEN 1 ELSE 2 END WHERE "marriage" BETWEEN 1 AND 4;
--> statement-breakpoint
UPDATE "member_profiles" SET "children" = 1 WHERE "children" = 2;
--> statement-breakpoint
UPDATE "member_profiles" SET "date_type" = CASE "date_type" WHEN 5 THEN 3 ELSE 1 END WHERE "date_type" BETWEEN 1 AND 5;
--> statement-breakpoint
UPDATE "member_profiles" SET "food_allergies" = COALESCE((
	SELECT array_agg("code" ORDER BY "code") FROM (
		SELECT DISTINCT CASE "old" WHEN 1 THEN 1 WHEN 2 THEN 2 WHEN 3 THEN 3 WHEN 4 THEN 4 WHEN 6 THEN 5 ELSE 6 END AS "code"
		FROM unnest("member_profiles"."food_allergies") AS "old" WHERE "old" <> 0
	) AS "moved"
), '{}') WHERE "food_allergies" <> '{}';
