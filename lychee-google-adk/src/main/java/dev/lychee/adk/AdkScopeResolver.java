package dev.lychee.adk;

/**
 * Maps an ADK application and user to the Lychee namespace that holds that user's memory. Must be
 * deterministic and injective on the pairs an application uses: two users never share a namespace.
 */
@FunctionalInterface
public interface AdkScopeResolver {

  /** The namespace of {@code userId} in {@code appName}. */
  String namespace(String appName, String userId);

  /** {@code <appName>/<userId>}: one namespace per user of each application. */
  static AdkScopeResolver perAppAndUser() {
    return (app, user) -> {
      if (app == null || app.isBlank() || user == null || user.isBlank()) {
        throw new IllegalArgumentException("an ADK memory call needs a non-blank app name and user id");
      }
      if (app.contains("/")) {
        throw new IllegalArgumentException("app names with '/' would make namespaces ambiguous: " + app);
      }
      return app + "/" + user;
    };
  }
}
