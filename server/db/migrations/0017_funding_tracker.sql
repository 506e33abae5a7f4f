ALTER TABLE "applications" ADD COLUMN "funding_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "funding_initiated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "expected_deposit_on" date;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "reconciled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "reconciled_by" uuid;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_reconciled_by_users_id_fk" FOREIGN KEY ("reconciled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applications_office_funding_idx" ON "applications" USING btree ("office_id","funding_requested_at") WHERE "applications"."funding_requested_at" is not null;