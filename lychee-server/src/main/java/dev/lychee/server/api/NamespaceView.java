package dev.lychee.server.api;

/** A namespace and how many turns it holds. */
public record NamespaceView(String namespace, long turns) {}
