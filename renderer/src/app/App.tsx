import type { ReactElement } from 'react';
import { BootScreen } from '../features/session/BootScreen';
import { LoginScreen } from '../features/session/LoginScreen';
import { MfaEnrolmentScreen } from '../features/session/MfaEnrolmentScreen';
import { SetupScreen } from '../features/session/SetupScreen';
import { Shell } from './Shell';
import { useSession } from './stores';

export function App(): ReactElement {
  const status = useSession((s) => s.status);
  switch (status) {
    case 'booting':
      return <BootScreen />;
    case 'setup':
      return <SetupScreen />;
    case 'anonymous':
      return <LoginScreen />;
    case 'authenticated':
      return <Shell />;
    case 'enrolment':
      return <MfaEnrolmentScreen />;
  }
}
