ALTER TABLE "files" ADD COLUMN "description" text;--> statement-breakpoint
CREATE INDEX "applications_office_last_name_idx" ON "applications" USING btree ("office_id",lower("last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "applications_last_name_idx" ON "applications" USING btree (lower("last_name") text_pattern_ops);