package dev.lychee.server.http;

import io.javalin.router.EndpointMetadata;

/** Marks an endpoint that reads a JSON body, so that other content types get 415. */
public enum JsonRoute implements EndpointMetadata {
  INSTANCE
}
