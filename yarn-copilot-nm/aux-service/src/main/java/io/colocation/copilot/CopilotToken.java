package io.colocation.copilot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secret every caller of the copilot's API but {@code /health} and {@code /information} must send. Kept in a file only
 * the NodeManager's user (and root) can read: an existing file is used as it is (an admin may provision one); a missing
 * one is generated at the first start, 32 random bytes in hex, mode 0600 in a 0700 directory, so a NodeManager restart
 * keeps the same secret. A symbolic link, a file that is not regular, or an empty file is refused: a local user must
 * not be able to plant or redirect it.
 */
final class CopilotToken {
    private static final Logger LOG = LoggerFactory.getLogger(CopilotToken.class);
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");

    private final Path file;
    private final String value;

    private CopilotToken(Path file, String value) {
        this.file = file;
        this.value = value;
    }

    /** Reads the token at {@code file}, generating it first when there is none. */
    static CopilotToken loadOrCreate(Path file) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            create(absolute);
        }
        if (Files.isSymbolicLink(absolute) || !Files.isRegularFile(absolute, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("token file " + absolute + " is not a regular file (a link or a directory is refused)");
        }
        String token = new String(Files.readAllBytes(absolute), StandardCharsets.UTF_8).trim();
        if (token.isEmpty()) {
            throw new IOException("token file " + absolute + " is empty");
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(absolute, LinkOption.NOFOLLOW_LINKS);
        if (mode.contains(PosixFilePermission.GROUP_READ) || mode.contains(PosixFilePermission.OTHERS_READ)) {
            LOG.warn("token file {} is readable by others than its owner ({}): chmod 600 it", absolute,
                    PosixFilePermissions.toString(mode));
        }
        return new CopilotToken(absolute, token);
    }

    private static void create(Path file) throws IOException {
        Path dir = file.getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
        }
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        StringBuilder hex = new StringBuilder();
        for (byte b : secret) {
            hex.append(String.format("%02x", b & 0xff));
        }
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
        } catch (FileAlreadyExistsException e) {
            return; // made meanwhile (a second NodeManager on the same directory): use that one
        }
        // the umask cannot widen 0600, but set it again in case the file system ignores creation attributes
        Files.setPosixFilePermissions(file, OWNER_ONLY_FILE);
        Files.write(file, (hex + "\n").getBytes(StandardCharsets.UTF_8));
        LOG.info("generated the copilot's token in {} (mode 0600)", file);
    }

    Path file() {
        return file;
    }

    byte[] bytes() {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
