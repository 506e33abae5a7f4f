CREATE TYPE "public"."refund_approval" AS ENUM('Awaiting', 'Approved', 'Rejected');--> statement-breakpoint
ALTER TABLE "offices" ADD COLUMN "refund_approval_above" bigint;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approval" "refund_approval";--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approved_by" uuid;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;