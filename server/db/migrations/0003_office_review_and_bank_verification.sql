CREATE TABLE "ach_sandbox_deposits" (
	"account_id" text PRIMARY KEY NOT NULL,
	"office_id" integer NOT NULL,
	"amounts_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "office_status_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "office_status_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"office_id" integer NOT NULL,
	"from_status" "enrollment_status" NOT NULL,
	"to_status" "enrollment_status" NOT NULL,
	"reason" text NOT NULL,
	"changed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offices" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "offices" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offices" ADD COLUMN "ach_deposits_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offices" ADD COLUMN "ach_verify_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ach_sandbox_deposits" ADD CONSTRAINT "ach_sandbox_deposits_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_status_changes" ADD CONSTRAINT "office_status_changes_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_status_changes" ADD CONSTRAINT "office_status_changes_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "office_status_changes_office_idx" ON "office_status_changes" USING btree ("office_id","created_at");