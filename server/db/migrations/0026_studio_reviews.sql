CREATE TABLE "studio_reviews" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "studio_reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"files" jsonb NOT NULL,
	"note" text NOT NULL,
	"publish_out_of_date" boolean DEFAULT false NOT NULL,
	"based_on" integer NOT NULL,
	"state" text DEFAULT 'Pending' NOT NULL,
	"publish_at" timestamp with time zone,
	"comments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"asked_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"publication_id" integer,
	"failure" text
);
--> statement-breakpoint
ALTER TABLE "descriptor_publications" ADD COLUMN "approved_by" uuid;--> statement-breakpoint
ALTER TABLE "studio_reviews" ADD CONSTRAINT "studio_reviews_asked_by_users_id_fk" FOREIGN KEY ("asked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_reviews" ADD CONSTRAINT "studio_reviews_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "studio_reviews_state_idx" ON "studio_reviews" USING btree ("state","id");--> statement-breakpoint
ALTER TABLE "descriptor_publications" ADD CONSTRAINT "descriptor_publications_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;