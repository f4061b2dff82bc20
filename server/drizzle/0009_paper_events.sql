CREATE TABLE "paper_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "paper_events" ADD CONSTRAINT "paper_events_account_id_paper_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."paper_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paper_events_account_id_idx" ON "paper_events" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "paper_events_created_at_idx" ON "paper_events" USING btree ("created_at");