package dev.lychee.server.api;

/** What a delete removed. */
public record Deleted(String namespace, String session, int turns, int records, int nodes) {}
