package dev.lychee.core.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Creates the files and directories a store keeps memory in, readable by their owner only.
 *
 * <p>Memory holds personal data, so a new directory is created 0700 and a new file 0600 on POSIX
 * file systems, whatever the process's umask. What exists already is left as it is: an operator
 * who chose wider modes keeps them. On other file systems the platform's defaults apply.
 */
public final class PrivateFiles {
  private PrivateFiles() {}

  /**
   * Creates {@code dir} and its missing parents, each new one 0700.
   *
   * @param dir the directory; null or existing is a no-op
   * @throws IOException when a directory cannot be created
   */
  public static void createDirectories(Path dir) throws IOException {
    if (dir == null || Files.isDirectory(dir)) {
      return;
    }
    Path absolute = dir.toAbsolutePath();
    createDirectories(absolute.getParent());
    create(absolute, true);
  }

  /**
   * Creates an empty file 0600 (and its missing parent directories 0700) unless it exists.
   *
   * @param file the file
   * @throws IOException when it cannot be created
   */
  public static void createFile(Path file) throws IOException {
    Path absolute = file.toAbsolutePath();
    createDirectories(absolute.getParent());
    if (!Files.exists(absolute)) {
      create(absolute, false);
    }
  }

  private static void create(Path path, boolean directory) throws IOException {
    FileAttribute<?>[] owner = posix()
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(directory ? "rwx------" : "rw-------"))}
        : new FileAttribute<?>[0];
    try {
      if (directory) {
        Files.createDirectory(path, owner);
      } else {
        Files.createFile(path, owner);
      }
    } catch (FileAlreadyExistsException raced) {
      // another opener created it between the check and here; a file of theirs is theirs to have
      // made private, but a directory must be one
      if (directory && !Files.isDirectory(path)) {
        throw raced;
      }
    }
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }
}
