package dev.lychee.server.mcp;

import dev.lychee.server.auth.Caller;
import dev.lychee.server.http.ApiException;
import dev.lychee.server.http.Guard;
import dev.lychee.server.http.JsonBodies;
import dev.lychee.server.http.Problem;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Guards {@code /mcp} like REST: a foreign {@code Host} or {@code Origin} gets a 403 problem document
 * (the Origin check the MCP streamable-HTTP transport requires), a request without a valid key a
 * 401, both before the MCP transport sees them; a valid one carries its {@link Caller} on to the tools.
 */
public final class McpAuthFilter implements Filter {
  private final Guard guard;
  private final JsonBodies json;

  public McpAuthFilter(Guard guard, JsonBodies json) {
    this.guard = guard;
    this.json = json;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
    HttpServletRequest req = (HttpServletRequest) request;
    HttpServletResponse res = (HttpServletResponse) response;
    try {
      guard.checkOrigin(req.getHeader("Host"), req.getHeader("Origin"));
      Caller caller = guard.authenticate(req.getHeader("Authorization"), req.getHeader("X-API-Key"));
      req.setAttribute(Guard.CALLER, caller);
    } catch (ApiException e) {
      e.headers().forEach(res::setHeader);
      res.setStatus(e.code().status());
      res.setContentType(Problem.MEDIA_TYPE);
      res.getOutputStream().write(json.write(new Problem("urn:lychee:problem:" + e.code().wire(), e.code().title(),
          e.code().status(), e.getMessage(), req.getRequestURI(), e.code().wire())).getBytes(StandardCharsets.UTF_8));
      return;
    }
    chain.doFilter(request, response);
  }
}
