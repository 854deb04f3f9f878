package dev.lychee.store.postgres;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source over the test server that counts what the store sends: every statement executed
 * and every commit, each a round trip to the server. Round trips do not depend on the machine's
 * load, so a test can hold a read or a write to its number of them.
 */
final class CountingDataSource implements DataSource {
  private static final Set<String> EXECUTES = Set.of("execute", "executeQuery", "executeUpdate", "executeBatch",
      "executeLargeUpdate", "executeLargeBatch");

  private static final String CONNECTION_SETUP = "SELECT set_config('statement_timeout'";

  private final String url;
  private final List<String> sent = new ArrayList<>();
  private final List<Thread> senders = new ArrayList<>();

  CountingDataSource(String url) {
    this.url = url;
  }

  /** What was sent since the last call, statements by their SQL and commits as {@code COMMIT}. */
  synchronized List<String> drain() {
    List<String> out = List.copyOf(sent);
    sent.clear();
    senders.clear();
    return out;
  }

  /** As {@link #drain()}, keeping only what the calling thread sent (not a background lane's writes). */
  synchronized List<String> drainMine() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < sent.size(); i++) {
      if (senders.get(i) == Thread.currentThread()) {
        out.add(sent.get(i));
      }
    }
    sent.clear();
    senders.clear();
    return out;
  }

  private synchronized void sent(String what) {
    // the pool's setup of a new connection (the session's timeouts, PostgresDatabase): sent once per
    // connection whenever the pool opens one, at moments its housekeeping picks, not by the call a
    // test counts; counting it made the counts depend on when the pool grew
    if (what.startsWith(CONNECTION_SETUP)) {
      return;
    }
    sent.add(what);
    senders.add(Thread.currentThread());
  }

  @Override
  public Connection getConnection() throws SQLException {
    return counting(DriverManager.getConnection(url));
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return counting(DriverManager.getConnection(url, user, password));
  }

  private Connection counting(Connection c) {
    return proxy(Connection.class, c, (method, args) -> {
      if (method.getName().equals("commit")) {
        sent("COMMIT");
      }
      Object out = invoke(c, method, args);
      if (out instanceof Statement s && method.getName().startsWith("prepare")) {
        String sql = (String) args[0];
        return proxy(method.getReturnType(), s, (m, a) -> {
          if (EXECUTES.contains(m.getName())) {
            sent(sql);
          }
          return invoke(s, m, a);
        });
      }
      if (out instanceof Statement s) {
        return proxy(method.getReturnType(), s, (m, a) -> {
          if (EXECUTES.contains(m.getName())) {
            sent(a != null && a.length > 0 ? String.valueOf(a[0]) : m.getName());
          }
          return invoke(s, m, a);
        });
      }
      return out;
    });
  }

  private interface Call {
    Object on(Method method, Object[] args) throws Throwable;
  }

  private static <T> T proxy(Class<T> type, Object target, Call call) {
    InvocationHandler h = (p, method, args) -> call.on(method, args);
    return type.cast(Proxy.newProxyInstance(CountingDataSource.class.getClassLoader(), new Class<?>[] {type}, h));
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() {
    return Logger.getGlobal();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return false;
  }
}
