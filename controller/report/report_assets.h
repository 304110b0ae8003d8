/*
 * The files the report page is made of, embedded in benchrack at build time
 * (controller/report/meson.build runs embed_assets.py): the page template,
 * its style and script (assets/), and the charting libraries from the Debian
 * packages installed at build time (libjs-chart.js: Chart.js; node-d3: d3,
 * for flame graphs). Each is text, NUL-ended, *_size bytes long.
 */
#ifndef BENCHRACK_REPORT_REPORT_ASSETS_H
#define BENCHRACK_REPORT_REPORT_ASSETS_H

#include <stddef.h>

extern const unsigned char br_report_asset_page[];
extern const size_t br_report_asset_page_size;
extern const unsigned char br_report_asset_style[];
extern const size_t br_report_asset_style_size;
extern const unsigned char br_report_asset_script[];
extern const size_t br_report_asset_script_size;
extern const unsigned char br_report_asset_chartjs[];
extern const size_t br_report_asset_chartjs_size;
extern const unsigned char br_report_asset_d3[];
extern const size_t br_report_asset_d3_size;

#endif
