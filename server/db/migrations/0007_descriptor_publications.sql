ALTER TYPE "public"."internal_role" ADD VALUE 'product.owner';--> statement-breakpoint
CREATE TABLE "descriptor_publications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "descriptor_publications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"hash" text NOT NULL,
	"overlay" jsonb NOT NULL,
	"changed" jsonb NOT NULL,
	"note" text NOT NULL,
	"restored_from" integer,
	"published_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "descriptor_publications" ADD CONSTRAINT "descriptor_publications_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;