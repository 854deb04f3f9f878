package dev.lychee.cli;

import dev.lychee.core.Lychee;
import dev.lychee.server.LycheeServer;
import dev.lychee.server.ServerConfig;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/** {@code demo --web}: the ingested demo memory behind the web inspector, until the process is stopped. */
final class DemoWeb {
  private DemoWeb() {}

  /** Serves {@code memory} on 127.0.0.1:{@code port} without keys, prints the URL and blocks until shutdown. */
  static int serve(Lychee memory, String namespace, int port, PrintStream out) {
    LycheeServer server;
    try {
      server = LycheeServer.start(ServerConfig.builder().host("127.0.0.1").port(port).build(), memory);
    } catch (RuntimeException e) {
      System.err.println("lychee demo: cannot serve on 127.0.0.1:" + port + " (" + e.getMessage()
          + "); choose another port with --port");
      return 1;
    }
    out.println();
    out.println("Inspector: " + server.baseUrl() + "/#/ns/" + URLEncoder.encode(namespace, StandardCharsets.UTF_8));
    out.println("(no API key needed on loopback; Ctrl-C stops the server)");
    out.flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "lychee-demo-web"));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.close();
    }
    return 0;
  }
}
