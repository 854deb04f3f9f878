package dev.lychee.server.api;

import java.util.List;

/**
 * The 202 answer of {@code POST .../turns}: what was stored now and what is left to encode.
 *
 * @param received turns in the request
 * @param stored turns newly stored (re-sent indices are skipped, so a retry stores 0)
 * @param segmentsQueued segments handed to the background encoder by this call (encoded later)
 * @param segmentsEncoded segments encoded by this call
 * @param segmentsPending segments of the namespace waiting for encoding after this call
 * @param recordsWritten records committed by this call
 * @param errors one line per segment whose encoding failed (it stays pending, its turns are kept)
 */
public record TurnsAccepted(
    String namespace, String session, int received, int stored, int segmentsClosed, int segmentsQueued, int segmentsEncoded,
    long segmentsPending, int recordsWritten, List<String> errors) {}
