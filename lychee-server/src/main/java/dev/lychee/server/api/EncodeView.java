package dev.lychee.server.api;

import java.util.List;

/**
 * The answer of {@code POST .../encode-pending}.
 *
 * @param segmentsEncoded segments encoded by this call (on the request's thread)
 * @param segmentsQueued segments handed to the background encoder (see status and await-idle)
 * @param errors one line per segment whose encoding failed again
 */
public record EncodeView(String namespace, int segmentsEncoded, int segmentsQueued, List<String> errors) {}
