/* The smallest fast Kuhn bot: checks or calls, keeps the bankrolls for the Money reply.
 * Used by benchmarks/match.py to measure the server, not the bot. Any player count. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(void){
  char line[4096]; int n=0; long money[16]={0}; long front[16];
  setvbuf(stdout,NULL,_IOFBF,1<<16);
  while(fgets(line,sizeof line,stdin)){
    if(!strcmp(line,"init_round\n")){
      fgets(line,sizeof line,stdin); n=1; for(char*p=line;*p;p++) if(*p==',') n++;
      for(int i=0;i<3;i++) fgets(line,sizeof line,stdin);
      puts("READY"); fflush(stdout);
    } else if(!strcmp(line,"init_hand\n")){
      fgets(line,sizeof line,stdin); fgets(line,sizeof line,stdin); puts("READY"); fflush(stdout);
    } else if(!strcmp(line,"play\n")){
      long mx=0; for(int i=0;i<n;i++){fgets(line,sizeof line,stdin); long v=atol(strrchr(line,' ')+1); if(v>mx) mx=v;}
      printf("BET %ld\n",mx); fflush(stdout);
    } else if(!strcmp(line,"end_hand\n")){
      for(int i=0;i<n;i++){fgets(line,sizeof line,stdin); front[i]=atol(strrchr(line,' ')+1); money[i]-=front[i];}
      fgets(line,sizeof line,stdin); fgets(line,sizeof line,stdin);
      char*p=line+5; while(*p==' '){ long v=strtol(p+1,&p,10); long w=strtol(p+1,&p,10); money[w]+=v; }
      puts("OK"); fflush(stdout);
    } else if(!strncmp(line,"EndAction",9)){
      for(int i=1;i<n;i++) fgets(line,sizeof line,stdin);
      printf("Money: "); for(int i=0;i<n;i++) printf(i?",%ld":"%ld",money[i]); printf("\n"); fflush(stdout);
    } else if(!strcmp(line,"end_round\n")){
      fgets(line,sizeof line,stdin); fgets(line,sizeof line,stdin);
      puts("Thank you dealer, have a nice day!"); fflush(stdout); return 0;
    }
  }
  return 0;
}
