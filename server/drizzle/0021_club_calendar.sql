CREATE TABLE "closing_days" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(40) NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "closing_days_range" CHECK ("closing_days"."end_date" >= "closing_days"."start_date")
);
--> statement-breakpoint
ALTER TABLE "closing_days" ADD CONSTRAINT "closing_days_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;