-- Data: the rest of product.md §9.5's code tables now follow the specification (area 0 blank; marriage;
-- children; food allergies; date type); stored profiles move to the new codes (the mapping is product.md
-- §9.5's table "Codes before migration 0014"). The audit log keeps what was written at the time.
-- What the new codes cannot say (死別, whether children live with the member, the old date types, peanut, fruit
-- and seafood allergies) is written into the staff's sales note first, so nothing recorded is lost; a note
-- that has no room for it (2,000 characters) keeps its text.
UPDATE "member_profiles" SET "sales_note" = "moved"."note" FROM (
	SELECT "user_id", concat_ws(E'\n', NULLIF("sales_note", ''), '移行前の記録（' || concat_ws('、',
		CASE "marriage" WHEN 4 THEN '婚姻歴: 死別' END,
		CASE "children" WHEN 1 THEN '子ども: あり(同居)' WHEN 2 THEN '子ども: あり(別居)' END,
		CASE "date_type" WHEN 2 THEN 'デート: 食事とお酒' WHEN 3 THEN 'デート: ランチ' WHEN 4 THEN 'デート: お茶' WHEN 5 THEN 'デート: 旅行も可' END,
		CASE WHEN "food_allergies" && ARRAY[5, 7, 8] THEN '食物アレルギー: ' || concat_ws('・',
			CASE WHEN 5 = ANY("food_allergies") THEN '落花生' END,
			CASE WHEN 7 = ANY("food_allergies") THEN '果物' END,
			CASE WHEN 8 = ANY("food_allergies") THEN '魚介' END) END
	) || '）') AS "note"
	FROM "member_profiles"
	WHERE "marriage" = 4 OR "children" IN (1, 2) OR "date_type" BETWEEN 2 AND 5 OR "food_allergies" && ARRAY[5, 7, 8]
) AS "moved"
WHERE "member_profiles"."user_id" = "moved"."user_id" AND length("moved"."note") <= 2000;
--> statement-breakpoint
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
