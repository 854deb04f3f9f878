package dev.lychee.server.api;

/** A session of a namespace and one past its highest stored turn index. */
public record SessionView(String session, int nextIndex) {}
