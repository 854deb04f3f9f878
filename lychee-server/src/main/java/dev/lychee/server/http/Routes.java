package dev.lychee.server.http;

import java.util.List;

/** A group of routes the server mounts (REST v1, mem0, operations; the web inspector adds its own). */
public interface Routes {
  List<RouteSpec> routes();
}
