package dev.lychee.server.api;

import java.util.Map;

/** What a namespace holds and how far encoding has got. */
public record StatusView(
    String namespace, long turns, int sessions, int records, Map<String, Long> segments, long segmentsPending) {}
