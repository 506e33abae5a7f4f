-- The kanban's lanes read from an index alone: an office's stage, newest first (created_at, then id, the order of a
-- lane), carrying what a card shows, so the 25 cards of a lane are the index's last 25 entries and its count a count
-- of its entries, without visiting the rows. It replaces (office_id, stage, created_at), which stage-filtered office
-- lists keep using through it.
CREATE INDEX "applications_office_stage_cards_idx" ON "applications" ("office_id", "stage", "created_at", "id")
  INCLUDE ("first_name", "last_name", "amount", "is_offer_match", "decision_status", "lender_name", "funding_status", "updated_at");
