// BouncyCastle (Debian's bcprov/bcpkix/bcutil, OpenJDK 17) as a second, strict RFC 3161 validator: for each
// query/reply pair it runs TimeStampResponse.validate (status, imprint, nonce, policy, certificate present),
// TimeStampToken.validate (signature, ESSCertIDv2, critical timeStamping EKU), checks the TSA certificate against
// the root, and that the reply is DER (re-encoding gives the same bytes).
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const CLASSPATH = ['bcprov', 'bcpkix', 'bcutil'].map((jar) => `/usr/share/java/${jar}.jar`).join(':');

const SOURCE = `
import java.nio.file.*;
import java.security.Security;
import java.security.cert.*;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.tsp.*;

public class TsaCheck {
  public static void main(String[] args) throws Exception {
    Security.addProvider(new BouncyCastleProvider());
    X509Certificate root = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(Files.newInputStream(Paths.get(args[0])));
    for (int i = 1; i + 1 < args.length; i += 2) {
      byte[] raw = Files.readAllBytes(Paths.get(args[i + 1]));
      TimeStampResponse response = new TimeStampResponse(raw);
      response.validate(new TimeStampRequest(Files.readAllBytes(Paths.get(args[i]))));
      TimeStampToken token = response.getTimeStampToken();
      X509CertificateHolder holder = (X509CertificateHolder) token.getCertificates().getMatches(token.getSID()).iterator().next();
      token.validate(new JcaSimpleSignerInfoVerifierBuilder().setProvider("BC").build(holder));
      new JcaX509CertificateConverter().setProvider("BC").getCertificate(holder).verify(root.getPublicKey());
      if (!Arrays.equals(ASN1Primitive.fromByteArray(raw).getEncoded("DER"), raw)) throw new IllegalStateException("the reply is not DER");
      System.out.println("OK serial=" + token.getTimeStampInfo().getSerialNumber() + " policy=" + token.getTimeStampInfo().getPolicy());
    }
  }
}
`;

export async function bouncyCastleCheck(dir: string, rootPem: string, pairs: Array<{ query: string; reply: string }>): Promise<{ code: number; stdout: string; stderr: string }> {
  const source = join(dir, 'TsaCheck.java');
  await writeFile(source, SOURCE);
  const args = ['-cp', CLASSPATH, source, rootPem, ...pairs.flatMap((pair) => [pair.query, pair.reply])];
  return new Promise((resolve, reject) => {
    execFile('java', args, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}
