CREATE TABLE "applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" varchar(6) NOT NULL,
	"name" varchar(50) NOT NULL,
	"age" integer NOT NULL,
	"email" varchar(254) NOT NULL,
	"tel" varchar(20) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "applications_type" CHECK ("applications"."type" in ('male', 'female'))
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"push_subscription" jsonb,
	"user_agent" varchar(512) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"login_id" varchar(24) NOT NULL,
	"name" varchar(50) NOT NULL,
	"password_hash" text NOT NULL,
	"role" integer NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"introducer" varchar(24) DEFAULT '' NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_login_id_unique" UNIQUE("login_id"),
	CONSTRAINT "users_login_id_format" CHECK ("users"."login_id" ~ '^[A-Za-z0-9-]{1,24}$')
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");