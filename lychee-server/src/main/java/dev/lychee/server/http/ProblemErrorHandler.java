package dev.lychee.server.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's error page for requests it refuses before any route sees them (a path holding an encoded
 * control character, a malformed request line): an RFC 9457 problem document with the general code
 * of the status, like every other error of the API, instead of Jetty's HTML page.
 */
public final class ProblemErrorHandler extends ErrorHandler {
  private final JsonBodies json;

  public ProblemErrorHandler(JsonBodies json) {
    this.json = json;
  }

  @Override
  protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
      Callback callback) {
    ProblemCode problem = ProblemCode.forStatus(code);
    // Jetty's reasons are fixed phrases ("Illegal character in path"), never request data or secrets
    String detail = "the server refused the request before routing it" + (message == null || message.isBlank() ? ""
        : " (" + message + ")") + (code == 400 ? "; a name in a path must be percent-encoded UTF-8 with no control character" : "");
    // no instance: a request Jetty could not parse has no path of its own (Jetty shows a placeholder)
    byte[] body = json.write(new Problem("urn:lychee:problem:" + problem.wire(), problem.title(), code, detail, null,
        problem.wire())).getBytes(StandardCharsets.UTF_8);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problem.MEDIA_TYPE);
    // Jetty closes the connection after a request it could not parse: say so, or a client that keeps
    // connections alive sends its next request into a closed socket
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    response.write(true, ByteBuffer.wrap(body), callback);
  }
}
