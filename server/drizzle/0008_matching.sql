CREATE TABLE "favorites" (
	"user_id" integer NOT NULL,
	"woman_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorites_user_id_woman_id_pk" PRIMARY KEY("user_id","woman_id")
);
--> statement-breakpoint
CREATE TABLE "setting_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"man_id" integer NOT NULL,
	"woman_id" integer NOT NULL,
	"preferred1" timestamp with time zone NOT NULL,
	"preferred2" timestamp with time zone NOT NULL,
	"preferred3" timestamp with time zone NOT NULL,
	"note" varchar(500) DEFAULT '' NOT NULL,
	"status" varchar(10) DEFAULT 'requested' NOT NULL,
	"slot" integer,
	"place" varchar(200),
	"reason" varchar(500),
	"conversation_id" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "setting_requests_status" CHECK ("setting_requests"."status" in ('requested', 'arranged', 'declined', 'cancelled')),
	CONSTRAINT "setting_requests_slot" CHECK ("setting_requests"."slot" is null or "setting_requests"."slot" between 1 and 3)
);
--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_woman_id_users_id_fk" FOREIGN KEY ("woman_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_requests" ADD CONSTRAINT "setting_requests_man_id_users_id_fk" FOREIGN KEY ("man_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_requests" ADD CONSTRAINT "setting_requests_woman_id_users_id_fk" FOREIGN KEY ("woman_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_requests" ADD CONSTRAINT "setting_requests_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_requests" ADD CONSTRAINT "setting_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "favorites_woman_id_idx" ON "favorites" USING btree ("woman_id");--> statement-breakpoint
CREATE INDEX "setting_requests_man_id_idx" ON "setting_requests" USING btree ("man_id","id");--> statement-breakpoint
CREATE INDEX "setting_requests_woman_id_idx" ON "setting_requests" USING btree ("woman_id","id");--> statement-breakpoint
CREATE INDEX "setting_requests_status_idx" ON "setting_requests" USING btree ("status","id");