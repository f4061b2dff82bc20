ALTER TABLE "jobs" ADD COLUMN "affinity" text;--> statement-breakpoint
CREATE INDEX "jobs_affinity_idx" ON "jobs" USING btree ("affinity") WHERE "jobs"."state" = 'pending' and "jobs"."affinity" is not null;--> statement-breakpoint
UPDATE "jobs" SET "affinity" = 'api-key:' || ("payload" ->> 'apiKeyId') WHERE "kind" = 'bracket' AND "state" = 'pending' AND "payload" ? 'apiKeyId';
