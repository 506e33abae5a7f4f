ALTER TABLE "application_lenders" ADD COLUMN "approved_alone" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "application_lenders" ADD COLUMN "app_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "application_lenders" ADD COLUMN "app_office_id" integer;--> statement-breakpoint
ALTER TABLE "application_lenders" ADD COLUMN "app_created_by" uuid;