// A tamperer's edit of a ustar header: the first header of `tar` changed by `edit`, its checksum made right again,
// so the reader judges the change itself rather than a checksum mismatch.
export const editHeader = (tar: Buffer, edit: (header: Buffer) => void): Buffer => {
  const edited = Buffer.from(tar);
  const header = edited.subarray(0, 512);
  edit(header);
  header.fill(0x20, 148, 156);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return edited;
};
