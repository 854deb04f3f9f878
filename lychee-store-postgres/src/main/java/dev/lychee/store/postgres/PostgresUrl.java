package dev.lychee.store.postgres;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A PostgreSQL JDBC URL taken apart for the pool: the URL the driver gets, and the user and
 * password of a libpq-style user-info part ({@code jdbc:postgresql://user:password@host/db}),
 * percent-decoded as libpq decodes them.
 *
 * <p>Why: the driver does not read user-info. Without a port it refuses the URL, and HikariCP's
 * "claims to not accept jdbcUrl" message then prints it with the password (its sanitiser masks only
 * a {@code password=} parameter); with a port the driver takes {@code user:password@host} for the
 * host name, and every retry's "unknown host" message printed the password. Split off here, the
 * user-info never reaches the driver, HikariCP or a message.
 *
 * @param driverUrl the URL without user-info (the same URL when it had none)
 * @param user the user-info's user; null when the URL carries none
 * @param password the user-info's password; null when the URL carries none
 */
record PostgresUrl(String driverUrl, String user, String password) {
  static final String PREFIX = "jdbc:postgresql:";

  /**
   * Splits {@code jdbcUrl}.
   *
   * @throws IllegalArgumentException when it is no PostgreSQL JDBC URL, its user-info holds a bad
   *     percent-escape, or it names the user or password twice (user-info and parameter); the
   *     message shows host, port and database only
   */
  static PostgresUrl parse(String jdbcUrl) {
    if (!jdbcUrl.startsWith(PREFIX)) {
      throw new IllegalArgumentException("a PostgreSQL JDBC URL starts with 'jdbc:postgresql:' (got "
          + PostgresDatabase.describeUrl(jdbcUrl) + ")");
    }
    String rest = jdbcUrl.substring(PREFIX.length());
    if (!rest.startsWith("//")) {
      return new PostgresUrl(jdbcUrl, null, null);
    }
    int query = rest.indexOf('?');
    // the last '@' before the parameters: a password may hold '@' or '/' unencoded by mistake,
    // and then still goes to the driver's properties, not into its host name
    int at = rest.lastIndexOf('@', query < 0 ? rest.length() - 1 : query - 1);
    if (at < 0) {
      return new PostgresUrl(jdbcUrl, null, null);
    }
    String where = PostgresDatabase.describeUrl(jdbcUrl);
    if (query >= 0 && (hasParameter(rest.substring(query + 1), "user") || hasParameter(rest.substring(query + 1), "password"))) {
      throw new IllegalArgumentException("the PostgreSQL URL for " + where + " names its user or password twice,"
          + " before '@' and as a parameter; give them once, either way");
    }
    String userInfo = rest.substring(2, at);
    int colon = userInfo.indexOf(':');
    String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon), "user", where);
    String password = colon < 0 ? null : decode(userInfo.substring(colon + 1), "password", where);
    return new PostgresUrl(PREFIX + "//" + rest.substring(at + 1), user.isEmpty() ? null : user, password);
  }

  private static boolean hasParameter(String parameters, String name) {
    for (String p : parameters.split("&")) {
      int eq = p.indexOf('=');
      if ((eq < 0 ? p : p.substring(0, eq)).toLowerCase(Locale.ROOT).equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** Percent-decoding as in a URI (UTF-8; '+' stays '+'); the message never shows the text. */
  private static String decode(String s, String what, String where) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    StringBuilder out = new StringBuilder(s.length());
    int i = 0;
    while (i < s.length()) {
      if (s.charAt(i) != '%') {
        out.append(s.charAt(i++));
        continue;
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      while (i < s.length() && s.charAt(i) == '%') {
        int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
        int lo = i + 2 < s.length() ? Character.digit(s.charAt(i + 2), 16) : -1;
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("the " + what + " before '@' in the PostgreSQL URL for " + where
              + " has a '%' that is not followed by two hexadecimal digits (write '%' as %25)");
        }
        bytes.write(hi * 16 + lo);
        i += 3;
      }
      out.append(bytes.toString(StandardCharsets.UTF_8));
    }
    return out.toString();
  }

  /** Host, port and database only: never the user-info. */
  @Override
  public String toString() {
    return "PostgresUrl[" + PostgresDatabase.describeUrl(driverUrl) + "]";
  }
}
