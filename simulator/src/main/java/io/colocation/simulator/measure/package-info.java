/**
 * Measurement: samples of what each host's kernel gave whom, the parts' CPU and memory, publication lag, scheduler
 * latency, and the report (table, {@code summary.json}, CSV, picture).
 */
package io.colocation.simulator.measure;
