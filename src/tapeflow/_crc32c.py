"""CRC-32C (Castagnoli), masked as TFRecord files frame their records (TensorFlow's
``core/lib/hash/crc32c.h``: ``((crc >> 15) | (crc << 17)) + 0xa282ead8``): one table-driven
byte loop, for the TFRecord reader and writer and the event-file reader."""

__all__ = ["masked_crc32c"]


def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def masked_crc32c(data: bytes) -> int:
    """TFRecord's checksum: CRC-32C of ``data``, rotated and offset ("masked")."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF
