CREATE TABLE "club_lookup_items" (
	"list" varchar(20) NOT NULL,
	"code" integer NOT NULL,
	"label" varchar(100) NOT NULL,
	"parent" integer,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "club_lookup_items_list_code_pk" PRIMARY KEY("list","code")
);
--> statement-breakpoint
CREATE TABLE "member_photos" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"path" text NOT NULL,
	"mime" varchar(20) NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"user_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_profile_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"field" varchar(20) NOT NULL,
	"from_code" integer,
	"to_code" integer,
	"actor_id" integer,
	"actor_name" varchar(50) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_profiles" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"name_kana" varchar(50) DEFAULT '' NOT NULL,
	"nickname" varchar(30) DEFAULT '' NOT NULL,
	"birth_date" date,
	"prefecture" integer,
	"area" integer,
	"blood_type" integer,
	"marriage" integer,
	"children" integer,
	"education" integer,
	"languages" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"language_level" integer,
	"living" integer,
	"partner" integer,
	"contact_method" integer,
	"id_document" integer,
	"height" integer,
	"weight" integer,
	"bust" integer,
	"waist" integer,
	"hip" integer,
	"cup" integer,
	"type" integer,
	"tattoo" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"plastic_surgery" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"hair_loss" integer,
	"hair_loss_span" integer,
	"breast_augmentation" integer,
	"breast_augmentation_span" integer,
	"braces" integer,
	"sake" integer,
	"tobacco" integer,
	"golf" integer,
	"holiday" integer,
	"food_allergies" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"personality" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"occupation" integer,
	"employment" integer,
	"side_job" integer,
	"company" integer,
	"income" integer,
	"joint_party" integer,
	"date_type" integer,
	"preferred_man" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"motivation" integer,
	"foreigner_vip" integer,
	"trip" integer,
	"time_slots" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"age_decades" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"men_dated" integer,
	"how_dated" integer,
	"pr" varchar(1000) DEFAULT '' NOT NULL,
	"women_rank" integer DEFAULT 0 NOT NULL,
	"entry_type" integer DEFAULT 0 NOT NULL,
	"charge_staff" integer,
	"media" integer,
	"importance" integer,
	"sales_note" varchar(2000) DEFAULT '' NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action";--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "handled_by" integer;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "member_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "member_photos" ADD CONSTRAINT "member_photos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_profile_history" ADD CONSTRAINT "member_profile_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_profile_history" ADD CONSTRAINT "member_profile_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_profiles" ADD CONSTRAINT "member_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_profiles" ADD CONSTRAINT "member_profiles_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_photos_user_id_idx" ON "member_photos" USING btree ("user_id","position");--> statement-breakpoint
CREATE INDEX "member_profile_history_user_id_idx" ON "member_profile_history" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "member_profiles_birth_date_idx" ON "member_profiles" USING btree ("birth_date");--> statement-breakpoint
CREATE INDEX "member_profiles_height_idx" ON "member_profiles" USING btree ("height");--> statement-breakpoint
CREATE INDEX "member_profiles_bust_idx" ON "member_profiles" USING btree ("bust");--> statement-breakpoint
CREATE INDEX "member_profiles_cup_idx" ON "member_profiles" USING btree ("cup");--> statement-breakpoint
CREATE INDEX "member_profiles_area_idx" ON "member_profiles" USING btree ("area");--> statement-breakpoint
CREATE INDEX "member_profiles_prefecture_idx" ON "member_profiles" USING btree ("prefecture");--> statement-breakpoint
CREATE INDEX "member_profiles_women_rank_idx" ON "member_profiles" USING btree ("women_rank");--> statement-breakpoint
CREATE INDEX "member_profiles_company_idx" ON "member_profiles" USING btree ("company");--> statement-breakpoint
CREATE INDEX "member_profiles_sake_idx" ON "member_profiles" USING btree ("sake");--> statement-breakpoint
CREATE INDEX "member_profiles_golf_idx" ON "member_profiles" USING btree ("golf");--> statement-breakpoint
CREATE INDEX "member_profiles_tobacco_idx" ON "member_profiles" USING btree ("tobacco");--> statement-breakpoint
CREATE INDEX "member_profiles_joint_party_idx" ON "member_profiles" USING btree ("joint_party");--> statement-breakpoint
CREATE INDEX "member_profiles_blood_type_idx" ON "member_profiles" USING btree ("blood_type");--> statement-breakpoint
CREATE INDEX "member_profiles_languages_idx" ON "member_profiles" USING gin ("languages");--> statement-breakpoint
CREATE INDEX "member_profiles_type_idx" ON "member_profiles" USING btree ("type");--> statement-breakpoint
CREATE INDEX "member_profiles_entry_type_idx" ON "member_profiles" USING btree ("entry_type");--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_handled_by_users_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applications_new_idx" ON "applications" USING btree ("id") WHERE "applications"."handled_at" is null;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action" CHECK ("audit_log"."action" in ('add', 'update', 'delete', 'image', 'profile', 'photo'));