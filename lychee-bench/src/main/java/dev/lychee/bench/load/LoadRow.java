package dev.lychee.bench.load;

/**
 * One measured line of a load run.
 *
 * @param mode {@code http ingest}, {@code http recall} or {@code in-process recall}
 * @param clients concurrent clients (threads)
 * @param requests requests timed, over all clients
 * @param requestsPerS requests completed per second of wall time
 * @param p50Ms median latency of one request
 * @param p95Ms 95th percentile latency
 * @param failures requests that did not get a 2xx (always 0 in a healthy run)
 */
public record LoadRow(String mode, int clients, int requests, double requestsPerS, double p50Ms, double p95Ms, int failures) {}
