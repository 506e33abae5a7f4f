CREATE TYPE "public"."app_log_kind" AS ENUM('Event', 'Decision', 'Contract');--> statement-breakpoint
CREATE TYPE "public"."app_stage" AS ENUM('NotApplicable', 'OfferSelected', 'SigningRequired', 'ReadyToFinalize', 'Finalized', 'SubmittedForFunding', 'Funded', 'NeedsAttention', 'Expired', 'Cancelled', 'Refund', 'Review', 'Declined');--> statement-breakpoint
CREATE TYPE "public"."bank_account_type" AS ENUM('Checking', 'Savings');--> statement-breakpoint
CREATE TYPE "public"."contract_sub_status" AS ENUM('NotApplicable', 'ESignLinkSent', 'ESignGenerated', 'KBAPending', 'KBAPassed', 'KBAFailed', 'RefundSubmitted', 'RefundProcessing', 'RefundCompleted', 'RefundCancelled', 'TermsPresented', 'PaymentMethodPresented', 'AgreementPresented', 'FundingApproved', 'FundsReleased', 'Booked');--> statement-breakpoint
CREATE TYPE "public"."employment_status" AS ENUM('EmployedFull', 'EmployedPart', 'SelfEmployed', 'Retired', 'Student', 'UnEmployed');--> statement-breakpoint
CREATE TYPE "public"."enrollment_status" AS ENUM('New', 'ESignSent', 'ESignCompleted', 'Submitted', 'UnderReview', 'Declined', 'Approved', 'OnHold', 'WatchList', 'Terminated');--> statement-breakpoint
CREATE TYPE "public"."funding_status" AS ENUM('Initiated', 'Processing', 'Completed');--> statement-breakpoint
CREATE TYPE "public"."internal_role" AS ENUM('df.admin', 'dfi.admin');--> statement-breakpoint
CREATE TYPE "public"."kba_status" AS ENUM('Pending', 'Passed', 'Failed');--> statement-breakpoint
CREATE TYPE "public"."lender_answer_status" AS ENUM('Pending', 'Approved', 'Declined', 'PendingReview', 'Error', 'TimedOut');--> statement-breakpoint
CREATE TYPE "public"."lender_transaction_status" AS ENUM('Submitted', 'Completed', 'Cancelled', 'Failed');--> statement-breakpoint
CREATE TYPE "public"."message_channel" AS ENUM('Email', 'Sms');--> statement-breakpoint
CREATE TYPE "public"."office_lender_status" AS ENUM('OfficeSubmitted', 'OfficeFundsSubmitted', 'SubmittedToLender', 'Completed', 'Cancelled');--> statement-breakpoint
CREATE TYPE "public"."office_role" AS ENUM('admin', 'support', 'tpa', 'sales');--> statement-breakpoint
CREATE TYPE "public"."outbox_status" AS ENUM('Pending', 'Sent', 'Failed');--> statement-breakpoint
CREATE TYPE "public"."refund_status" AS ENUM('Submitted', 'Processing', 'Completed', 'Cancelled');--> statement-breakpoint
CREATE TYPE "public"."residence_status" AS ENUM('Rent', 'Own', 'Other');--> statement-breakpoint
CREATE TYPE "public"."time_zone" AS ENUM('AT', 'AZT', 'CT', 'ET', 'HT', 'MT', 'PT');--> statement-breakpoint
CREATE TABLE "app_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "app_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" bigint NOT NULL,
	"kind" "app_log_kind" NOT NULL,
	"message" text NOT NULL,
	"data" jsonb,
	"actor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_notes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "app_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" bigint NOT NULL,
	"note" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "application_lenders" (
	"app_id" bigint NOT NULL,
	"lender_id" integer NOT NULL,
	"status" "lender_answer_status" DEFAULT 'Pending' NOT NULL,
	"adverse_action_reason" text,
	"lender_app_id" text,
	"responded_at" timestamp with time zone,
	"latency_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_lenders_app_id_lender_id_pk" PRIMARY KEY("app_id","lender_id")
);
--> statement-breakpoint
CREATE TABLE "applications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "applications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1000 CACHE 1),
	"office_id" integer NOT NULL,
	"created_by" uuid,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"search_name" text GENERATED ALWAYS AS (lower("applications"."first_name" || ' ' || "applications"."last_name")) STORED NOT NULL,
	"email" text,
	"mobile_phone" text,
	"home_phone" text,
	"street_address" text,
	"suite_no" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"dob_enc" text,
	"ssn_enc" text,
	"last4_ssn" text,
	"annual_income" bigint,
	"other_income" bigint,
	"other_income_source" text,
	"monthly_housing_payment" bigint,
	"employment_status" "employment_status",
	"employer_name" text,
	"employer_phone" text,
	"job_title" text,
	"employment_months" integer,
	"residence_status" "residence_status",
	"is_active_military" boolean DEFAULT false NOT NULL,
	"amount" bigint NOT NULL,
	"service_date" date,
	"procedure" text,
	"reference_code" text,
	"stage" "app_stage" DEFAULT 'NotApplicable' NOT NULL,
	"decision_status" "lender_answer_status",
	"contract_status" text,
	"contract_sub_status" "contract_sub_status" DEFAULT 'NotApplicable' NOT NULL,
	"status_text" text,
	"lender_id" integer,
	"lender_code" text,
	"lender_name" text,
	"third_party_lender" text,
	"contract_id" text,
	"lender_app_url" text,
	"product_code" text,
	"product_name" text,
	"product_type" text,
	"promo_term" integer,
	"promo_apr" numeric(7, 3),
	"approved_amount" bigint,
	"apr" numeric(7, 3),
	"term" integer,
	"monthly_payment" bigint,
	"expiration" timestamp with time zone,
	"in_office_apply" boolean DEFAULT false NOT NULL,
	"enable_remote_sign" boolean DEFAULT false NOT NULL,
	"is_finalized" boolean DEFAULT false NOT NULL,
	"is_expired" boolean DEFAULT false NOT NULL,
	"is_mismatch" boolean DEFAULT false NOT NULL,
	"is_offer_match" boolean DEFAULT false NOT NULL,
	"is_borrower_hold" boolean DEFAULT false NOT NULL,
	"is_lender_hold" boolean DEFAULT false NOT NULL,
	"is_pending" boolean DEFAULT false NOT NULL,
	"is_credit_frozen" boolean DEFAULT false NOT NULL,
	"is_credit_locked" boolean DEFAULT false NOT NULL,
	"is_poi_reqd" boolean DEFAULT false NOT NULL,
	"is_ssn_mismatch" boolean DEFAULT false NOT NULL,
	"funded_amount" bigint,
	"funded_at" timestamp with time zone,
	"funding_status" "funding_status",
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "applications_amount_check" CHECK ("applications"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "config_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "config_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"value" text,
	"display_order" integer DEFAULT 0 NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"office_id" integer NOT NULL,
	"app_id" bigint,
	"owner_id" integer,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"key" text NOT NULL,
	"operation" text NOT NULL,
	"actor" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" smallint,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_key_operation_actor_pk" PRIMARY KEY("key","operation","actor")
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"office_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" "office_role" NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kba_quizzes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "kba_quizzes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" bigint NOT NULL,
	"transaction_id" text NOT NULL,
	"quiz_id" text NOT NULL,
	"questions" jsonb NOT NULL,
	"answer_hashes" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"status" "kba_status" DEFAULT 'Pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lender_transactions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lender_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" bigint NOT NULL,
	"lender_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" "lender_transaction_status" DEFAULT 'Submitted' NOT NULL,
	"lender_reference" text,
	"data" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lenders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lenders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"phone" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"app_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" bigint NOT NULL,
	"lender_id" integer NOT NULL,
	"product_code" text NOT NULL,
	"product_name" text,
	"product_type" text,
	"promo_term" integer,
	"term" integer,
	"no_interest_term" integer,
	"min_line" bigint,
	"max_line" bigint,
	"promo_apr" numeric(7, 3),
	"apr" numeric(7, 3),
	"interest_rate" numeric(7, 3),
	"amount" bigint,
	"monthly_payment" bigint,
	"promo_monthly_payment" bigint,
	"origination_fee" bigint,
	"total_interest" bigint,
	"total_cost" bigint,
	"discount_rate" numeric(7, 3),
	"discount_amount" bigint,
	"url" text,
	"is_selected" boolean DEFAULT false NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"messages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "office_lenders" (
	"office_id" integer NOT NULL,
	"lender_id" integer NOT NULL,
	"lender_office_id" text,
	"status" "office_lender_status",
	"notes" text,
	"num_order" integer DEFAULT 0 NOT NULL,
	"program_url" text,
	"office_apply_mode" text,
	"is_enrollment_completed" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"discount_rate" numeric(7, 3),
	"show_apply" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "office_lenders_office_id_lender_id_pk" PRIMARY KEY("office_id","lender_id")
);
--> statement-breakpoint
CREATE TABLE "office_owners" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "office_owners_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"office_id" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"title" text,
	"email" text,
	"mobile_phone" text,
	"home_phone" text,
	"dob_enc" text,
	"ssn_enc" text,
	"ssn_last4" text,
	"ownership_percent" numeric(5, 2),
	"street_address" text,
	"suite_no" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"annual_income" bigint,
	"net_worth" bigint,
	"primary_income_source" text,
	"secondary_income_source" text,
	"is_primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "office_settings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "office_settings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"office_id" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"value" text,
	"display_order" integer DEFAULT 0 NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 100 CACHE 1),
	"name" text NOT NULL,
	"legal_name" text,
	"phone" text,
	"fax" text,
	"website" text,
	"license_no" text,
	"license_state" text,
	"category" text,
	"tax_id" text,
	"business_type" text,
	"annual_revenue" bigint,
	"group_code" text,
	"promo_code" text,
	"how_heard" text,
	"location_count" integer,
	"street_address" text,
	"suite_no" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"time_zone" time_zone,
	"google_place_id" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"enrollment_status" "enrollment_status" DEFAULT 'New' NOT NULL,
	"is_enrollment_completed" boolean DEFAULT false NOT NULL,
	"is_approved" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"submitted_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"code" text,
	"landing_description" text,
	"show_maps" boolean DEFAULT false NOT NULL,
	"maps_url" text,
	"logo_file_id" uuid,
	"picture_file_id" uuid,
	"bank_account_type" "bank_account_type",
	"bank_name" text,
	"bank_account_name" text,
	"bank_routing_number_enc" text,
	"bank_routing_last4" text,
	"bank_account_number_enc" text,
	"bank_account_last4" text,
	"ach_provider" text,
	"ach_customer_id" text,
	"ach_account_id" text,
	"ach_account_status" text,
	"ach_verify_method" text,
	"ach_verify_status" text,
	"ach_verified_at" timestamp with time zone,
	"ach_debit_status" text,
	"ach_debit_authorized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oidc_store" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_store_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "otp_codes" (
	"app_id" bigint NOT NULL,
	"channel" "message_channel" NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "otp_codes_app_id_channel_pk" PRIMARY KEY("app_id","channel")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel" "message_channel" NOT NULL,
	"recipient" text NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" "outbox_status" DEFAULT 'Pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" bigint NOT NULL,
	"office_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"reason" text,
	"status" "refund_status" DEFAULT 'Submitted' NOT NULL,
	"ach_status" text,
	"estimated_ach_delivery_date" date,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "security_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "security_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"actor" text,
	"detail" jsonb,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "send_app_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "send_app_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"office_id" integer NOT NULL,
	"app_id" bigint,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"mobile_phone" text,
	"amount" bigint NOT NULL,
	"service_date" date,
	"enable_remote_sign" boolean DEFAULT false NOT NULL,
	"sent_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_opt_outs" (
	"phone" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stipulations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stipulations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" bigint NOT NULL,
	"lender_id" integer,
	"name" text NOT NULL,
	"explanation" text,
	"is_required" boolean DEFAULT true NOT NULL,
	"document_id" uuid,
	"is_photo_id_uploaded" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_offices" (
	"user_id" uuid NOT NULL,
	"office_id" integer NOT NULL,
	"role" "office_role" NOT NULL,
	"title" text,
	"time_zone" time_zone,
	"is_primary" boolean DEFAULT false NOT NULL,
	"is_invited" boolean DEFAULT false NOT NULL,
	"is_invite_processed" boolean DEFAULT false NOT NULL,
	"is_disabled" boolean DEFAULT false NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_offices_user_id_office_id_pk" PRIMARY KEY("user_id","office_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"role" "office_role" NOT NULL,
	"user_role" "internal_role",
	"title" text,
	"time_zone" time_zone,
	"provider" text DEFAULT 'local' NOT NULL,
	"provider_id" text,
	"password_hash" text,
	"is_disabled" boolean DEFAULT false NOT NULL,
	"last_login_at" timestamp with time zone,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_lower_check" CHECK ("users"."email" = lower("users"."email"))
);
--> statement-breakpoint
ALTER TABLE "app_logs" ADD CONSTRAINT "app_logs_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_notes" ADD CONSTRAINT "app_notes_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_notes" ADD CONSTRAINT "app_notes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_lenders" ADD CONSTRAINT "application_lenders_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_lenders" ADD CONSTRAINT "application_lenders_lender_id_lenders_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."lenders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_lender_id_lenders_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."lenders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_id_office_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."office_owners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kba_quizzes" ADD CONSTRAINT "kba_quizzes_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lender_transactions" ADD CONSTRAINT "lender_transactions_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lender_transactions" ADD CONSTRAINT "lender_transactions_lender_id_lenders_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."lenders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lender_transactions" ADD CONSTRAINT "lender_transactions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_tokens" ADD CONSTRAINT "link_tokens_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_lender_id_lenders_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."lenders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_lenders" ADD CONSTRAINT "office_lenders_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_lenders" ADD CONSTRAINT "office_lenders_lender_id_lenders_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."lenders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_owners" ADD CONSTRAINT "office_owners_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "office_settings" ADD CONSTRAINT "office_settings_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offices" ADD CONSTRAINT "offices_logo_file_id_files_id_fk" FOREIGN KEY ("logo_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offices" ADD CONSTRAINT "offices_picture_file_id_files_id_fk" FOREIGN KEY ("picture_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_codes" ADD CONSTRAINT "otp_codes_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_app_logs" ADD CONSTRAINT "send_app_logs_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_app_logs" ADD CONSTRAINT "send_app_logs_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_app_logs" ADD CONSTRAINT "send_app_logs_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stipulations" ADD CONSTRAINT "stipulations_app_id_applications_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stipulations" ADD CONSTRAINT "stipulations_lender_id_lenders_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."lenders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stipulations" ADD CONSTRAINT "stipulations_document_id_files_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_offices" ADD CONSTRAINT "user_offices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_offices" ADD CONSTRAINT "user_offices_office_id_offices_id_fk" FOREIGN KEY ("office_id") REFERENCES "public"."offices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_logs_app_idx" ON "app_logs" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "app_notes_app_idx" ON "app_notes" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "applications_office_created_idx" ON "applications" USING btree ("office_id","created_at");--> statement-breakpoint
CREATE INDEX "applications_office_stage_created_idx" ON "applications" USING btree ("office_id","stage","created_at");--> statement-breakpoint
CREATE INDEX "applications_office_search_idx" ON "applications" USING btree ("office_id","search_name" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "applications_search_idx" ON "applications" USING btree ("search_name" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "applications_created_idx" ON "applications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "applications_stage_created_idx" ON "applications" USING btree ("stage","created_at");--> statement-breakpoint
CREATE INDEX "applications_office_funded_idx" ON "applications" USING btree ("office_id","funded_at") WHERE "applications"."funded_at" is not null;--> statement-breakpoint
CREATE INDEX "applications_funded_idx" ON "applications" USING btree ("funded_at") WHERE "applications"."funded_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "config_items_type_name_key" ON "config_items" USING btree ("type","name");--> statement-breakpoint
CREATE INDEX "files_office_idx" ON "files" USING btree ("office_id");--> statement-breakpoint
CREATE INDEX "files_app_idx" ON "files" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invites_token_hash_key" ON "invites" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invites_office_idx" ON "invites" USING btree ("office_id");--> statement-breakpoint
CREATE INDEX "kba_quizzes_app_idx" ON "kba_quizzes" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "lender_transactions_app_idx" ON "lender_transactions" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lenders_code_key" ON "lenders" USING btree ("code");--> statement-breakpoint
CREATE INDEX "link_tokens_app_idx" ON "link_tokens" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "offers_app_idx" ON "offers" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "office_owners_office_idx" ON "office_owners" USING btree ("office_id");--> statement-breakpoint
CREATE UNIQUE INDEX "office_settings_office_type_name_key" ON "office_settings" USING btree ("office_id","type","name");--> statement-breakpoint
CREATE UNIQUE INDEX "offices_code_key" ON "offices" USING btree ("code");--> statement-breakpoint
CREATE INDEX "offices_group_code_idx" ON "offices" USING btree ("group_code");--> statement-breakpoint
CREATE INDEX "offices_enrollment_status_idx" ON "offices" USING btree ("enrollment_status");--> statement-breakpoint
CREATE INDEX "oidc_store_grant_idx" ON "oidc_store" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oidc_store_user_code_idx" ON "oidc_store" USING btree ("user_code");--> statement-breakpoint
CREATE INDEX "oidc_store_uid_idx" ON "oidc_store" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oidc_store_expires_idx" ON "oidc_store" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "outbox_created_idx" ON "outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("created_at") WHERE "outbox"."status" = 'Pending';--> statement-breakpoint
CREATE INDEX "refunds_office_created_idx" ON "refunds" USING btree ("office_id","created_at");--> statement-breakpoint
CREATE INDEX "refunds_created_idx" ON "refunds" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "refunds_app_idx" ON "refunds" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "security_events_created_idx" ON "security_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "send_app_logs_office_created_idx" ON "send_app_logs" USING btree ("office_id","created_at");--> statement-breakpoint
CREATE INDEX "stipulations_app_idx" ON "stipulations" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "user_offices_office_idx" ON "user_offices" USING btree ("office_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_provider_subject_key" ON "users" USING btree ("provider","provider_id");