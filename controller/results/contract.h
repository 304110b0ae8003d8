/*
 * The kinds and versions of the JSON documents benchrack writes besides run
 * records, baselines and reports (results/record.h has theirs): each
 * document opens with "kind" and "schema_version", results/SCHEMA.md says
 * what each holds and results/schema/<kind>.schema.json is its JSON Schema.
 * A version goes up when a key changes meaning, goes away or becomes
 * required; a reader refuses a version it does not know.
 */
#ifndef BENCHRACK_RESULTS_CONTRACT_H
#define BENCHRACK_RESULTS_CONTRACT_H

/* `benchrack measure --json`. */
#define BR_CONTRACT_MEASUREMENT "measurement"
#define BR_CONTRACT_MEASUREMENT_VERSION 1U
/* `benchrack profile --format json` (version 1 was marked benchrack_profile: 1;
 * 3 added source, samples_lost_reasons, region_passes, interval_instructions,
 * bias_known, and made --from/--to a time region). */
#define BR_CONTRACT_PROFILE "profile"
#define BR_CONTRACT_PROFILE_VERSION 3U
/* The rack document, results/racks/<rack>-<time>.json (a document without a
 * version is from before versioning: version 1). */
#define BR_CONTRACT_RACK "rack"
#define BR_CONTRACT_RACK_VERSION 1U
/* `benchrack diff OLD.elf NEW.elf --format json`. */
#define BR_CONTRACT_SIZE_DIFF "size_diff"
#define BR_CONTRACT_SIZE_DIFF_VERSION 1U
/* A pending upload, results/spool/<id>.json and results/rejected/<id>.json
 * (version 1 was marked spool_version: 1 and named the sink's kind "kind";
 * upload/item_json.h reads both). */
#define BR_CONTRACT_UPLOAD_ITEM "upload_item"
#define BR_CONTRACT_UPLOAD_ITEM_VERSION 2U
/* The data embedded in `benchrack report`'s page, script#benchrack-data
 * (version 1 was marked "format": "benchrack-report", "version": 1). */
#define BR_CONTRACT_REPORT_PAGE "report_page"
#define BR_CONTRACT_REPORT_PAGE_VERSION 2U

#endif
