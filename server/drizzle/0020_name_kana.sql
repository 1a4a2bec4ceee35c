ALTER TABLE "users" ADD COLUMN "name_kana" varchar(50);--> statement-breakpoint
-- Each member's profile reading (ふりがな) becomes the person's, as the contract's normaliseReading stores it
-- (packages/contract/src/kana.ts, product.md §5.7): NFKC, katakana as hiragana, trimmed, one space between
-- words. member_profiles.name_kana stays as it was for the release before; it is no longer read.
UPDATE "users" AS u
SET "name_kana" = left(
  btrim(regexp_replace(translate(normalize(p."name_kana", NFKC), 'ァアィイゥウェエォオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトドナニヌネノハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロヮワヰヱヲンヴヵヶヽヾ', 'ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをんゔゕゖゝゞ'), '\s+', ' ', 'g')),
  50
)
FROM "member_profiles" AS p
WHERE p."user_id" = u."id" AND btrim(p."name_kana") <> '' AND u."name_kana" IS NULL;
