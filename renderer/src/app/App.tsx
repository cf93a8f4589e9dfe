import type { ReactElement } from 'react';
import { BootScreen } from '../screens/BootScreen';
import { LoginScreen } from '../screens/LoginScreen';
import { MfaEnrolmentScreen } from '../screens/MfaEnrolmentScreen';
import { SetupScreen } from '../screens/SetupScreen';
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
