package dev.lychee.server.api;

/**
 * The answer of {@code POST .../await-idle}.
 *
 * @param idle true when nothing of the namespace was queued or being encoded in this process
 *     before the timeout; segments left pending after failed attempts do not count here (see
 *     {@code status.segments_pending} and {@code status.stopped_sessions})
 * @param waitedMs how long the call waited
 * @param status the namespace's status when the wait ended
 */
public record IdleView(String namespace, boolean idle, long waitedMs, long timeoutMs, StatusView status) {}
