ALTER TABLE "application_lenders" ADD COLUMN "place" smallint;--> statement-breakpoint
ALTER TABLE "application_lenders" ADD COLUMN "best_amount" bigint;--> statement-breakpoint
ALTER TABLE "application_lenders" ADD COLUMN "best_apr" numeric(7, 3);--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "lenders_asked" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "lenders_approved" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "first_approved_place" smallint;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "discount_rate" numeric(7, 3);