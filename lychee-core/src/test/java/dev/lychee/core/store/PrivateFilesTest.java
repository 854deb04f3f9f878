package dev.lychee.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivateFilesTest {
  @TempDir Path dir;

  @BeforeEach
  void posixOnly() {
    Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file modes");
  }

  @Test
  void newDirectoriesAndFilesAreOwnerOnly() throws Exception {
    Path file = dir.resolve("a").resolve("b").resolve("memory.db");
    PrivateFiles.createFile(file);
    assertThat(mode(dir.resolve("a"))).isEqualTo("rwx------");
    assertThat(mode(dir.resolve("a").resolve("b"))).isEqualTo("rwx------");
    assertThat(mode(file)).isEqualTo("rw-------");
    assertThat(Files.size(file)).isZero();
  }

  @Test
  void whatExistsKeepsItsModeAndContent() throws Exception {
    Path shared = Files.createDirectory(dir.resolve("shared"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    Path file = Files.writeString(shared.resolve("memory.db"), "kept");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    PrivateFiles.createFile(file);
    PrivateFiles.createDirectories(shared);
    assertThat(mode(shared)).isEqualTo("rwxr-xr-x");
    assertThat(mode(file)).isEqualTo("rw-r--r--");
    assertThat(Files.readString(file)).isEqualTo("kept");
    PrivateFiles.createDirectories(null);
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
