/**
 * Each endpoint of a status snapshot with its site's name (`sitename`), read from the site
 * usage report of the same GSM nearest to the snapshot's day (the earlier one on a tie); NULL
 * when no report lists the site. The same text runs in Athena (Trino) and DuckDB, so it is
 * written out whole: docs/operations.md gives it to Athena users, and a test checks that the
 * docs and this file agree.
 */
export const AGENT_STATUS_NAMED = `CREATE VIEW skywatch_archive.agent_status_named AS
WITH names AS (
  SELECT DISTINCT gsm_key, "date", site.sitekey AS sitekey, site.sitename AS sitename
  FROM skywatch_archive.site_usage
), snapshots AS (
  SELECT DISTINCT gsm_key, "date", kc
  FROM skywatch_archive.agent_status
), nearest AS (
  SELECT s.gsm_key, s."date", s.kc, n.sitename,
    row_number() OVER (
      PARTITION BY s.gsm_key, s."date", s.kc
      ORDER BY abs(date_diff('day', CAST(n."date" AS date), CAST(s."date" AS date))), n."date"
    ) AS nearness
  FROM snapshots s
  JOIN names n ON n.gsm_key = s.gsm_key AND n.sitekey = s.kc
)
SELECT a.*, nearest.sitename
FROM skywatch_archive.agent_status a
LEFT JOIN nearest
  ON nearest.gsm_key = a.gsm_key AND nearest."date" = a."date" AND nearest.kc = a.kc
  AND nearest.nearness = 1`;

/** Views over the dataset tables, created after them. */
export const ARCHIVE_VIEWS = [AGENT_STATUS_NAMED];
